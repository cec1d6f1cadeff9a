import { HttpStatus, Injectable } from '@nestjs/common';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import { ApiError } from '../../common/api-error.js';
import { StorageReserve } from '../../database/storage-reserve.js';
import { AdmissionService } from '../admission/admission.service.js';
import { InputResolver } from '../inputs/input-resolver.service.js';
import type { WebhookConfig } from '../requests/shared-fields.dto.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';
import type { Submission } from './job-pipeline.js';
import { ProcessingError } from '../core/processing-error.js';
import { SyncRequestDrain } from './sync-request-drain.js';

/** Gives back an admitted slot once the job's command is counted where it waits. */
type ReleaseSlot = () => void;

/**
 * What a submission passes before any job exists: its inputs are the caller's and
 * reachable, an async request's webhook is deliverable, the service is not stopping (503
 * SHUTTING_DOWN), the data volume has room (503 STORAGE_FULL) and the admission cap lets it
 * in (503 QUEUE_FULL otherwise). A refusal creates nothing.
 */
@Injectable()
export class SubmissionGate {
  constructor(
    private readonly inputs: InputResolver,
    private readonly webhooks: WebhooksService,
    private readonly admission: AdmissionService,
    private readonly drain: SyncRequestDrain,
    private readonly storage: StorageReserve,
  ) {}

  async pass(principal: ProcessingPrincipal, submission: Submission): Promise<ReleaseSlot> {
    this.drain.assertAdmitting();
    this.storage.assertRoom();
    try {
      await this.inputs.precheck(principal.orgId, submission.request.input);
    } catch (error) {
      if (error instanceof ProcessingError)
        throw new ApiError(error.status as HttpStatus, error.code, error.message);
      throw error;
    }
    if (submission.isAsync) {
      const asyncConfig = submission.request.async as
        { webhook?: WebhookConfig | null } | undefined;
      await this.webhooks.assertSubmittable(asyncConfig?.webhook);
    }
    // Checked again: the stop may have begun while the inputs were checked.
    this.drain.assertAdmitting();
    return this.admission.admit({
      queue: 'cpu',
      lane: submission.lane,
      sync: submission.gated,
    });
  }
}
