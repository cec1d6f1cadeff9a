import { validateExtractRequest } from '../../../documents/extract/extract-schema.js';
import { resolveExtractVersions } from '../../../documents/versions/model-pins.js';
import { documentOperation } from '../document-operation.js';
import { settingsOf } from '../operation.js';
import { ExtractConfigDto } from './extract-request.dto.js';

/** Extract: deep with `settings.deep_extract`. */
export const EXTRACT = documentOperation({
  kind: 'extract',
  jobType: 'Extract',
  request: ExtractConfigDto,
  gatedWhenAsync: false,
  isDeep: (request) => settingsOf(request).deep_extract === true,
  documentPassword: (request) => request.parsing?.settings?.document_password ?? undefined,
  resolveVersions(body, resolver) {
    validateExtractRequest(body);
    return resolveExtractVersions(body, resolver);
  },
  // `v3_extract`: the reductoai SDK's tag for a result in the schema's own shape (an object),
  // which its `extract` tag reserves for a list of them.
  responseFields: (outcome) => ({
    response_type: 'v3_extract',
    result: outcome.result,
    studio_link: null,
  }),
});
