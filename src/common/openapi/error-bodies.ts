import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** `error` of the error envelope: a stable upper-case code, a message, and details by code. */
@ApiSchema({
  name: 'ApiErrorDetail',
  description: 'Further fields depend on the code (e.g. `parameter`, `fields`, `available`).',
})
class ApiErrorDetailBody {
  @ApiProperty({ example: 'INVALID_GROUP_BY' })
  code!: string;

  @ApiProperty({ example: 'groupBy must be one of product, feature, api_key, file_type, metadata' })
  message!: string;
}

/** The body of every 4xx/5xx except a 422 (ApiError in src/common/api-error.ts). */
@ApiSchema({ name: 'ApiError' })
export class ApiErrorBody {
  @ApiProperty({ type: ApiErrorDetailBody })
  error!: ApiErrorDetailBody;
}

/** Any JSON value, spelled out: a property typed `unknown` would otherwise read as an object. */
const ANY_JSON = ['string', 'number', 'boolean', 'array', 'object', 'null'].map((type) => ({
  type,
}));

/** One entry of HTTPValidationError.detail (src/common/validation-error.ts). */
@ApiSchema({ name: 'ValidationError' })
class ValidationErrorBody {
  @ApiProperty({
    type: 'array',
    items: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
    example: ['body', 'input'],
  })
  loc!: (string | number)[];

  @ApiProperty({ example: 'Field required' })
  msg!: string;

  @ApiProperty({ example: 'missing' })
  type!: string;

  @ApiPropertyOptional({ description: 'The offending value (any JSON)', anyOf: ANY_JSON })
  input?: unknown;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  ctx?: Record<string, unknown>;
}

/** The spec's 422 body. */
@ApiSchema({ name: 'HTTPValidationError' })
export class HttpValidationErrorBody {
  @ApiProperty({ type: [ValidationErrorBody] })
  detail!: ValidationErrorBody[];
}
