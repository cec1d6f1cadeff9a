import { ExtractConfigDto } from '../../requests/operation-requests.dto.js';
import { documentOperation } from '../document-operation.js';
import { settingsOf } from '../operation.js';

/** Extract: deep with `settings.deep_extract`. */
export const EXTRACT = documentOperation({
  kind: 'extract',
  jobType: 'Extract',
  request: ExtractConfigDto,
  gatedWhenAsync: false,
  isDeep: (request) => settingsOf(request).deep_extract === true,
  documentPassword: (request) => request.parsing?.settings?.document_password ?? undefined,
  responseFields: (outcome) => ({ result: outcome.result, studio_link: null }),
});
