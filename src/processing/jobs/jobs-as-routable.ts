import { Injectable } from '@nestjs/common';
import { InputResolver } from '../inputs/input-resolver.service.js';
import type { RedisOperation } from '../queue/redis/redis-queue.types.js';
import type { RoutableJob, RoutableJobs } from '../queue/redis/routable-jobs.port.js';
import { commandOfJob, OPERATIONS, operationOfType } from '../operations/job-command.js';
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
    const known = operation !== undefined && Object.hasOwn(OPERATIONS, operation);
    return {
      orgId: job.orgId,
      operation: (known ? operation : operationOfType(job.type)) as RedisOperation,
      request: job.request,
      versions: job.versions,
      sources: () => this.inputs.sources(job.orgId, commandOfJob(job).request.input, jobId),
    };
  }
}
