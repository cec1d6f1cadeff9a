import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { GROUP_BY_VALUES } from './export/usage-export.query.js';

/** Bodies of the usage export and the metadata-key routes. */

@ApiSchema({ name: 'UsageExportRow' })
export class UsageExportRowBody {
  @ApiProperty({
    format: 'date',
    example: '2026-11-21',
    description: 'Day (local day of `timeZone`)',
  })
  date!: string;

  @ApiProperty({ description: 'Value of the grouping dimension (`unknown` when absent)' })
  group!: string;

  @ApiProperty({
    required: false,
    description:
      'Value of the second grouping dimension (`unknown` when absent); only when the export ' +
      'groups by two',
  })
  subgroup?: string;

  @ApiProperty({ description: 'Total credits consumed' })
  credits!: number;

  @ApiProperty({ type: 'integer', description: 'Number of API requests made' })
  requestCount!: number;
}

@ApiSchema({ name: 'UsageExport' })
export class UsageExportBody {
  @ApiProperty()
  orgId!: string;

  @ApiProperty({ format: 'date' })
  startDate!: string;

  @ApiProperty({ format: 'date' })
  endDate!: string;

  @ApiProperty({
    description: 'The grouping dimension applied; two as a comma list (`product,api_key`)',
    pattern: `^(${GROUP_BY_VALUES.join('|')})(,(${GROUP_BY_VALUES.join('|')}))?$`,
    example: 'product',
  })
  groupBy!: string;

  @ApiProperty({
    required: false,
    description: 'The time zone of the days, when it is not UTC (IANA name)',
    example: 'Europe/Berlin',
  })
  timeZone?: string;

  @ApiProperty({ type: [UsageExportRowBody], description: 'One entry per day and group value' })
  data!: UsageExportRowBody[];
}

@ApiSchema({ name: 'MetadataKeyStatus' })
export class MetadataKeyStatusBody {
  @ApiProperty()
  key!: string;

  @ApiProperty()
  enabled!: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  enabledAt!: string | null;

  @ApiProperty({ type: 'integer', description: 'Events seen carrying the key' })
  eventCount!: number;

  @ApiProperty({ type: 'integer' })
  distinctValues!: number;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  rejectedAt!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'e.g. too many distinct values' })
  rejectedReason!: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      "When a manager deleted the key's usage tracking: its rollups were dropped, it holds no place under `maxKeys`, and usage is not broken out by it again",
  })
  trackingDeletedAt!: string | null;
}

@ApiSchema({ name: 'MetadataKeyEnableRefusal' })
export class MetadataKeyEnableRefusalBody {
  @ApiProperty({
    enum: ['METADATA_KEY_REJECTED', 'METADATA_KEY_LIMIT'],
    description: 'The error code enabling the key is answered with',
  })
  code!: 'METADATA_KEY_REJECTED' | 'METADATA_KEY_LIMIT';

  @ApiProperty({ description: 'The error message enabling the key is answered with' })
  message!: string;
}

@ApiSchema({ name: 'ListedMetadataKey' })
export class ListedMetadataKeyBody extends MetadataKeyStatusBody {
  @ApiProperty({ description: 'Whether enabling the key now would be accepted' })
  canEnable!: boolean;

  @ApiProperty({
    type: MetadataKeyEnableRefusalBody,
    nullable: true,
    description: 'Why enabling the key would be refused; null when `canEnable`',
  })
  enableRefusal!: MetadataKeyEnableRefusalBody | null;
}

@ApiSchema({ name: 'MetadataKeyStatusList' })
export class MetadataKeyStatusListBody {
  @ApiProperty({
    type: [ListedMetadataKeyBody],
    description:
      "The keys the organization's usage is broken out by (or that are enabled): keys first seen past `maxKeys` are not listed; they stay in the jobs' metadata and webhooks only",
  })
  data!: ListedMetadataKeyBody[];

  @ApiProperty({
    type: 'integer',
    description:
      'Places taken under `maxKeys`: keys tracked, rejected or enabled (not those whose tracking was deleted)',
  })
  keysHeld!: number;

  @ApiProperty({
    type: 'integer',
    description:
      "Most metadata keys an organization's usage is broken out by (`METADATA_KEYS_MAX_PER_ORG`)",
  })
  maxKeys!: number;
}
