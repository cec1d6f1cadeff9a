import { resolveEditVersions } from '../../../documents/versions/model-pins.js';
import type { EditOutcome } from '../../../documents/edit/edit.types.js';
import { documentOperation } from '../document-operation.js';
import { EditJobRequestDto } from './edit-request.dto.js';

/**
 * Edit: no deep variant, no `document_password` (pdf-lib cannot write an encrypted PDF);
 * `document_url` is signed each time the result is read (JobsService.resultView).
 */
export const EDIT = documentOperation({
  kind: 'edit',
  jobType: 'Edit',
  request: EditJobRequestDto,
  gatedWhenAsync: false,
  isDeep: () => false,
  documentPassword: () => undefined,
  resolveVersions: resolveEditVersions,
  responseFields: (outcome) => {
    const { form_schema, report } = (outcome as EditOutcome).result;
    return { response_type: 'edit', document_url: null, form_schema, report };
  },
});
