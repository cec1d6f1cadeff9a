import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';

/**
 * class-validator DTO validation for the account and admin APIs: unknown fields are refused
 * and every failure becomes one 400 `{"error":{"code","message"}}` naming the fields, since
 * the 422 HTTPValidationError body belongs to the processing API.
 */
export function bodyValidationPipe(code = 'INVALID_BODY'): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    exceptionFactory: (errors) =>
      ApiError.badRequest(code, validationMessage(errors), { fields: fieldsOf(errors) }),
  });
}

export function validationMessage(errors: ValidationError[], parent = ''): string {
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
