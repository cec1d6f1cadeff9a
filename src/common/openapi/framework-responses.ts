import type { OpenAPIObject, OperationObject, ResponseObject } from '@nestjs/swagger';

const API_ERROR = { $ref: '#/components/schemas/ApiError' };
const HTTP_VALIDATION_ERROR = { $ref: '#/components/schemas/HTTPValidationError' };

/** What each status the server itself can answer means, whatever the operation. */
const MEANINGS: Record<string, string> = {
  '400': 'The request is malformed or invalid (the error code names what is wrong)',
  '403': 'The key may not do this (e.g. another organization, a role that may not)',
  '404': 'No such resource for this caller',
  '408': 'The request was not received within the time limit',
  '413': 'The body is larger than the limit',
  '414': 'A path parameter is longer than the limit',
  '415': 'The body has a content type the operation does not take',
  '422': 'The request failed validation',
  '431': 'The request headers are larger than the limit',
  '502': "A URL input's server failed: an invalid redirect, the connection lost mid-body",
  '504': 'A URL input took longer than the fetch time limit, or a sync request its wait limit',
  '503': 'The service is unavailable (starting, draining or a queue is full); see `Retry-After`',
};
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface SurfaceOptions {
  /** Whether an operation belongs to the processing API (422 HTTPValidationError) or not. */
  isProcessing(path: string): boolean;
  /**
   * Whether an operation reads a document while the request waits: its 422 is then also a
   * document the engines refuse (a page range past its pages, structure or time limits),
   * answered in the error envelope with the engine's code.
   */
  readsDocumentsSync(path: string, operation: OperationObject): boolean;
}

/** The 422 of an operation that reads documents while the request waits. */
const DOCUMENT_422 = {
  description: 'The request failed validation, or the document cannot be processed',
  content: {
    'application/json': { schema: { anyOf: [HTTP_VALIDATION_ERROR, API_ERROR] } },
  },
};

/**
 * Declares, on every operation, the error statuses the HTTP layer answers for any request of
 * its kind (a malformed request, an over-long parameter, an over-large or unsupported body,
 * oversized headers, a timeout, unavailability), each with the error body of its API
 * surface, so no answer the server can give is undocumented. Error responses carry only JSON
 * whatever the operation produces on success.
 */
export function declareFrameworkResponses(document: OpenAPIObject, surface: SurfaceOptions): void {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const processing = surface.isProcessing(path);
      const hasPathParams = path.includes('{');
      const hasInput = hasPathParams || Boolean(operation.requestBody) || hasQuery(operation);
      const statuses = ['400', '408', '431', '503'];
      if (hasPathParams) statuses.push('404', '414');
      if (operation.requestBody) statuses.push('413', '415');
      // Processing bodies may name URL inputs, fetched before or while the job runs.
      if (processing && operation.requestBody) statuses.push('502', '504');
      if (hasInput) statuses.push('422');
      if (!processing && (operation.security?.length ?? 0) > 0) statuses.push('403');
      for (const status of statuses) {
        operation.responses[status] ??= errorResponse(
          MEANINGS[status] ?? 'Error',
          status === '422' && processing ? HTTP_VALIDATION_ERROR : API_ERROR,
        );
      }
      if (processing && surface.readsDocumentsSync(path, operation)) {
        operation.responses['422'] = DOCUMENT_422;
      }
      onlyJsonErrors(operation);
    }
  }
}

function hasQuery(operation: OperationObject): boolean {
  return (operation.parameters ?? []).some((p) => 'in' in p && p.in === 'query');
}

function errorResponse(description: string, schema: object): ResponseObject {
  return { description, content: { 'application/json': { schema } } };
}

function onlyJsonErrors(operation: OperationObject): void {
  for (const [status, response] of Object.entries(operation.responses)) {
    if (Number(status) < 400 || !response || !('content' in response) || !response.content)
      continue;
    const json = response.content['application/json'];
    if (json) response.content = { 'application/json': json };
  }
}
