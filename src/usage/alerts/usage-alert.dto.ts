import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsIn, IsString, Length, MaxLength } from 'class-validator';
import { IsOmittable } from '../../accounts/dashboard/body-validation.pipe.js';
import { PRODUCTS } from '../usage-event.js';
import { ALERT_MEASURES, ALERT_PERIODS } from './usage-alert.types.js';
import { urlSchemePattern } from '../../common/url-scheme-pattern.js';

@ApiSchema({ name: 'CreateUsageAlert' })
export class CreateUsageAlertDto {
  @ApiPropertyOptional({ maxLength: 100, description: 'A label (default: made from the rule)' })
  @IsOmittable()
  @IsString()
  @MaxLength(100)
  name?: string;

  @ApiProperty({ enum: ALERT_MEASURES, description: 'What is counted' })
  @IsIn(ALERT_MEASURES)
  measure!: (typeof ALERT_MEASURES)[number];

  @ApiProperty({ enum: ALERT_PERIODS, description: 'The UTC period the total runs over' })
  @IsIn(ALERT_PERIODS)
  period!: (typeof ALERT_PERIODS)[number];

  @ApiProperty({
    // The service refuses zero however written (parseThreshold); the description says so too.
    oneOf: [
      { type: 'string', pattern: '^(?!0+(\\.0+)?$)[0-9]{1,12}(\\.[0-9]{1,6})?$' },
      // The least a threshold can be (6 decimals) and the greatest double of 12 digits.
      { type: 'number', minimum: 0.000001, maximum: 999999999999.9999 },
    ],
    description:
      'Fires when the period total reaches it (>=); > 0. Credits: a decimal with at most 6 ' +
      'fractional digits (text keeps it exact); requests: a whole number',
    example: '1000',
  })
  @IsDefined()
  threshold!: string | number;

  @ApiPropertyOptional({ enum: PRODUCTS, description: "Count only this product's usage" })
  @IsOmittable()
  @IsIn(PRODUCTS)
  product?: (typeof PRODUCTS)[number];

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 256,
    description: 'With `metadataValue`: count only async jobs carrying this value (key enabled)',
  })
  @IsOmittable()
  @IsString()
  @Length(1, 256)
  metadataKey?: string;

  @ApiPropertyOptional({ maxLength: 1024, description: 'The value of `metadataKey` to count' })
  @IsOmittable()
  @IsString()
  @MaxLength(1024)
  metadataValue?: string;

  @ApiProperty({
    format: 'uri',
    pattern: urlSchemePattern(['http', 'https']),
    maxLength: 2048,
    description: 'Where the signed webhook goes (http or https)',
  })
  @IsString()
  @Length(1, 2048)
  webhookUrl!: string;
}
