import { Injectable } from '@nestjs/common';
import { InputResolver } from '../inputs/input-resolver.service.js';
import type { RoutableJob, RoutableJobs } from '../queue/redis/routable-jobs.port.js';
import { commandOfJob } from '../operations/job-command.js';
import { isJobOperation, operationOfType } from '../operations/operations.js';
import { JobsRepository } from './jobs.repository.js';

/** The job store and input resolver behind the routing strategy's RoutableJobs port. */
@Injectable()
export class JobsAsRoutable implements RoutableJobs {
  constructor(
    private readonly jobs: JobsRepository,
    private readonly inputs: InputResolver,
  ) {}

  async find(jobId: string, operation?: string): Promise<RoutableJob | undefined> {
    const job = await this.jobs.find(jobId);
    if (!job) return undefined;
    return {
      orgId: job.orgId,
      operation: isJobOperation(operation) ? operation : operationOfType(job.type),
      request: job.request,
      versions: job.versions,
      sources: () => this.inputs.sources(job.orgId, commandOfJob(job).request.input, jobId),
    };
  }
}
