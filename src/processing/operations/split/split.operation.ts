import { resolveSplitVersions } from '../../../documents/versions/model-pins.js';
import { documentOperation } from '../document-operation.js';
import { settingsOf } from '../operation.js';
import { SplitConfigDto } from './split-request.dto.js';

/** Split: deep with `settings.deep_split`. */
export const SPLIT = documentOperation({
  kind: 'split',
  jobType: 'Split',
  request: SplitConfigDto,
  gatedWhenAsync: false,
  isDeep: (request) => settingsOf(request).deep_split === true,
  documentPassword: (request) => request.parsing?.settings?.document_password ?? undefined,
  resolveVersions: resolveSplitVersions,
  responseFields: (outcome) => ({ response_type: 'split', result: outcome.result }),
});
