import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { either, UrlResultBody } from './result.responses.js';

/** The classify response (sync body and a classify job's `result`). */
@ApiSchema({ name: 'CriterionConfidence' })
class CriterionConfidenceBody {
  @ApiProperty()
  criterion!: string;

  @ApiProperty({ enum: ['high', 'low'] })
  confidence!: 'high' | 'low';
}

@ApiSchema({ name: 'CategoryConfidence' })
class CategoryConfidenceBody {
  @ApiProperty()
  category!: string;

  @ApiProperty({ description: "Share of the category's criteria rated high", minimum: 0 })
  confidence!: number;

  @ApiProperty({ type: [CriterionConfidenceBody] })
  criteria_confidence!: CriterionConfidenceBody[];
}

@ApiSchema({ name: 'ClassifyResponseConfidence' })
class ClassifyConfidenceBody {
  @ApiProperty({ type: [CategoryConfidenceBody] })
  categories!: CategoryConfidenceBody[];
}

@ApiSchema({ name: 'ClassifyCategory' })
class ClassifyCategoryBody {
  @ApiProperty({ type: String, nullable: true, description: 'null when no categories given' })
  category!: string | null;
}

@ApiSchema({ name: 'ClassifyUsage' })
class ClassifyUsageBody {
  @ApiProperty({ type: 'integer' })
  num_pages!: number;

  @ApiProperty({ type: 'integer' })
  num_categories!: number;

  @ApiProperty()
  credits!: number;
}

@ApiSchema({ name: 'ClassifyGrouping' })
class ClassifyGroupingBody {
  @ApiProperty({ description: 'Group of the chosen category, or `ungrouped`' })
  grouping!: string;
}

@ApiExtraModels(ClassifyCategoryBody, UrlResultBody)
@ApiSchema({ name: 'ClassifyResponse' })
export class ClassifyResponseBody {
  @ApiProperty()
  job_id!: string;

  @ApiProperty({ enum: ['classify'] })
  response_type!: 'classify';

  @ApiProperty(either(ClassifyCategoryBody, UrlResultBody))
  result!: unknown;

  @ApiPropertyOptional({ type: ClassifyConfidenceBody, description: 'Absent in URL form' })
  response_confidence?: ClassifyConfidenceBody;

  @ApiProperty({ type: ClassifyUsageBody })
  usage!: ClassifyUsageBody;

  @ApiProperty({ description: 'Seconds' })
  duration!: number;

  @ApiPropertyOptional({ type: ClassifyGroupingBody, description: 'With `category_groups`' })
  extra_metadata?: ClassifyGroupingBody;
}
