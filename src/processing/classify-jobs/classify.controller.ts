import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import { CurrentPrincipal } from '../../accounts/auth/current-principal.decorator.js';
import { ProcessingAuthGuard } from '../../accounts/auth/processing-auth.guard.js';
import { ClassifyConfigDto } from '../requests/classify-config.dto.js';
import { ValidatedBodyPipe } from '../requests/validated-body.pipe.js';
import { ClassifyJobsService } from './classify-jobs.service.js';

const classifyBody = new ValidatedBodyPipe(ClassifyConfigDto);

@Controller()
@UseGuards(ProcessingAuthGuard)
export class ClassifyController {
  constructor(private readonly classify: ClassifyJobsService) {}

  @Post('classify')
  @HttpCode(200)
  run(
    @Body(classifyBody) config: ClassifyConfigDto,
    @CurrentPrincipal() principal: ProcessingPrincipal,
    @Req() request: FastifyRequest,
  ): Promise<Record<string, unknown>> {
    const aborted = new AbortController();
    request.raw.once('close', () => {
      if (!request.raw.complete) aborted.abort();
    });
    return this.classify.runSync(principal, config, aborted.signal);
  }

  @Post('classify_async')
  @HttpCode(200)
  runAsync(
    @Body(classifyBody) config: ClassifyConfigDto,
    @CurrentPrincipal() principal: ProcessingPrincipal,
  ): Promise<{ job_id: string }> {
    return this.classify.submitAsync(principal, config);
  }
}
