import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module.js';
import { DashboardPageController } from './dashboard-page.controller.js';
import { DashboardSessionController } from './dashboard-session.controller.js';

/**
 * The account dashboard page served by this app: its HTML and assets, and its browser
 * session. The page reads only the public dashboard API and usage export, like any client.
 */
@Module({
  imports: [AccountsModule],
  controllers: [DashboardPageController, DashboardSessionController],
})
export class DashboardModule {}
