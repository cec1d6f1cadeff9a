import 'reflect-metadata';

/**
 * The few Nest pieces that the account services, their repositories, `DuckDbService` and
 * `ApiError` need, imported from their own files (public paths of the package's `exports`)
 * rather than from `@nestjs/common`'s index, which loads all of Nest's common package
 * (~0.35 s of CPU). docproc-admin builds these classes by hand on its direct path and must
 * answer in under 0.5 s (docs/decisions/0088-admin-cli-direct-path-without-nest.md). They
 * are the same classes the index exports, so Nest's DI and `instanceof HttpException` see no
 * difference.
 */
export { Injectable } from '@nestjs/common/decorators/core/injectable.decorator.js';
export { Inject } from '@nestjs/common/decorators/core/inject.decorator.js';
export { Optional } from '@nestjs/common/decorators/core/optional.decorator.js';
export { HttpException } from '@nestjs/common/exceptions/http.exception.js';
export { HttpStatus } from '@nestjs/common/enums/http-status.enum.js';
