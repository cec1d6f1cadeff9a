import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** The `GET /versions` body: model families, their versions and rollout dates. */

@ApiSchema({ name: 'ModelVersion' })
class VersionListingBody {
  @ApiProperty({ example: 'layout-v3' })
  version!: string;

  @ApiProperty({
    format: 'date',
    example: '2026-06-01',
    description: 'First UTC day of the stage (RFC 3339 full-date)',
  })
  alpha_from!: string;

  @ApiProperty({
    format: 'date',
    example: '2026-06-15',
    description: 'First UTC day of the stage (RFC 3339 full-date)',
  })
  default_from!: string;

  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    description: 'First UTC day of the stage (RFC 3339 full-date)',
  })
  deprecated_from!: string | null;

  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    description: 'First UTC day of the stage (RFC 3339 full-date)',
  })
  removed_from!: string | null;

  @ApiProperty({ enum: ['alpha', 'default', 'deprecated', 'removed'] })
  stage!: string;

  @ApiProperty({ description: 'Whether a request may pin it now' })
  pinnable!: boolean;

  @ApiProperty()
  frozen_snapshot!: boolean;

  @ApiProperty()
  notes!: string;
}

@ApiSchema({ name: 'ModelFamily' })
class FamilyListingBody {
  @ApiProperty({ example: 'layout_model' })
  family!: string;

  @ApiProperty({ type: String, nullable: true, example: 'settings.alpha.layout_model' })
  pin_field!: string | null;

  @ApiProperty()
  description!: string;

  @ApiProperty({ type: String, nullable: true, description: 'What requests pinning nothing get' })
  default!: string | null;

  @ApiProperty({ type: [VersionListingBody] })
  versions!: VersionListingBody[];
}

@ApiSchema({ name: 'ModelVersions' })
export class VersionsBody {
  @ApiProperty({ format: 'date-time' })
  now!: string;

  @ApiProperty({ type: [FamilyListingBody] })
  families!: FamilyListingBody[];
}
