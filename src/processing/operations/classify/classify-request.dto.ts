import { IsBoolean, IsIn } from 'class-validator';
import {
  AsyncConfigDto,
  type ClassificationCategoryDto,
  classificationSchema,
  classifyInput,
  pageRange,
  type PageSelection,
  UploadResponseDto,
} from '../../requests/shared-fields.dto.js';
import { Check, Required } from '../../requests/request-validation.js';
import { dict, list, model, nullable, str } from '../../requests/field-checkers.js';

/** The body of `/classify` and `/classify_async`. */
export class ClassifyConfigDto {
  @Required()
  @Check(classifyInput)
  input!: string | string[] | UploadResponseDto;

  @IsIn(['default', 'accurate'])
  model: 'default' | 'accurate' = 'default';

  @IsBoolean()
  priority = true;

  @Check(model(AsyncConfigDto))
  async: AsyncConfigDto = new AsyncConfigDto();

  @IsBoolean()
  force_url_result = false;

  @Check(classificationSchema())
  classification_schema: ClassificationCategoryDto[] = [];

  @Check(dict(list(str)), { optional: true })
  category_groups?: Record<string, string[]>;

  @Check(pageRange)
  page_range: PageSelection = null;

  @Check(nullable(str))
  document_metadata: string | null = null;

  /** Declared by the reductoai SDK's ClassifyRunParams: keep the result past the retention period. */
  @IsBoolean()
  persist_results = false;

  /** The batch lane: `batch` requests queue behind everything else and have their own cap. */
  @IsIn(['default', 'batch'])
  queue_priority: 'default' | 'batch' = 'default';
}
