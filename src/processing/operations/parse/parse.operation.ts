import { resolveParseVersions } from '../../../documents/versions/model-pins.js';
import { documentOperation } from '../document-operation.js';
import { ParseConfigDto } from './parse-request.dto.js';

/** Parse: no deep variant; the admission cap holds its async requests too. */
export const PARSE = documentOperation({
  kind: 'parse',
  jobType: 'Parse',
  request: ParseConfigDto,
  gatedWhenAsync: true,
  isDeep: () => false,
  documentPassword: (request) => request.settings?.document_password ?? undefined,
  resolveVersions: resolveParseVersions,
  responseFields: (outcome) => ({
    response_type: 'parse',
    result: outcome.result,
    pdf_url: null,
    studio_link: null,
  }),
});
