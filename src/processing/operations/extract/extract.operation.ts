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
  responseFields: (outcome) => ({ result: outcome.result, studio_link: null }),
});
