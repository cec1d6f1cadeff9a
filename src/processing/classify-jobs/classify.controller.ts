import { Body, Controller, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import { CurrentPrincipal } from '../../accounts/auth/current-principal.decorator.js';
import { ProcessingAuthGuard } from '../../accounts/auth/processing-auth.guard.js';
import { ClassifyConfigDto } from '../requests/classify-config.dto.js';
import { abortWhenClientLeaves } from '../requests/client-disconnect.js';
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
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>> {
    return this.classify.runSync(principal, config, abortWhenClientLeaves(reply));
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
