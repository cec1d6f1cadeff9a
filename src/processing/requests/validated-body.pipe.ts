import { PipeTransform } from '@nestjs/common';
import { RequestValidationError } from '../../common/validation-error.js';
import { validateModel } from './request-validation.js';

/** Validates a JSON body against a DTO class; every violation becomes one 422 `detail` item. */
export class ValidatedBodyPipe<T extends object> implements PipeTransform<unknown, T> {
  constructor(private readonly cls: new () => T) {}

  transform(body: unknown): T {
    if (body === undefined || body === null) {
      throw new RequestValidationError([
        { loc: ['body'], type: 'missing', msg: 'Field required', input: null },
      ]);
    }
    const { instance, issues } = validateModel(this.cls, body, ['body']);
    if (!instance) throw new RequestValidationError(issues);
    return instance;
  }
}
