import {
  ArgumentMetadata,
  HttpStatus,
  PipeTransform,
  ValidationError,
  ValidationPipe,
} from '@nestjs/common';
import { ValidateIf } from 'class-validator';
import { ApiError } from '../../common/api-error.js';

/**
 * class-validator DTO validation for the account dashboard API: the body must be a JSON
 * object (or absent, read as `{}`), unknown fields are refused, nothing is coerced (a number where a string belongs is
 * an error, not "123"), and every failure is one 422 `{"error":{"code","message","fields"}}`
 * naming the fields. The 422 HTTPValidationError body is the processing API's; this is the
 * dashboard's error envelope at the same status, so a wrong type is 422 on both surfaces.
 */
export function bodyValidationPipe(code = 'INVALID_BODY'): PipeTransform {
  const invalid = (message: string, fields: string[]) =>
    new ApiError(HttpStatus.UNPROCESSABLE_ENTITY, code, message, { fields });
  const pipe = new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => invalid(validationMessage(errors), fieldsOf(errors)),
  });
  return {
    transform(value: unknown, metadata: ArgumentMetadata): unknown {
      if (metadata.type !== 'body') return pipe.transform(value, metadata);
      // No body at all reads as `{}`: its model's required fields then say what is missing.
      const body = value === undefined ? {} : value;
      if (!isJsonObject(body)) throw invalid('The body must be a JSON object', []);
      return pipe.transform(body, metadata);
    },
  };
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function validationMessage(errors: ValidationError[], parent = ''): string {
  return errors
    .flatMap((error) => {
      const field = parent ? `${parent}.${error.property}` : error.property;
      const own = Object.values(error.constraints ?? {});
      const nested = error.children?.length ? [validationMessage(error.children, field)] : [];
      return [...own, ...nested];
    })
    .join('; ');
}

function fieldsOf(errors: ValidationError[]): string[] {
  return errors.map((error) => error.property);
}

/**
 * A field that may be left out; a value that is present is validated, `null` included
 * (class-validator's IsOptional lets `null` through, which a schema of `type: string` refuses).
 */
export function IsOmittable(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}
