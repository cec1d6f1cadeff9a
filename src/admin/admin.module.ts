import { Module } from '@nestjs/common';
import { AdminCommandsModule } from './admin-commands.module.js';
import { AdminEndpointService } from './admin-endpoint.service.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { AdminController } from './admin.controller.js';

/** The server side of `docproc-admin`: admin.json, its token and `/admin/v1/...`. */
@Module({
  imports: [AdminCommandsModule],
  controllers: [AdminController],
  providers: [AdminEndpointService, AdminTokenGuard],
})
export class AdminModule {}
