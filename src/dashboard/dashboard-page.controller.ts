import { ApiExcludeController } from '@nestjs/swagger';
import fs from 'node:fs/promises';
import { Controller, Get, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../common/api-error.js';
import { DashboardAsset, dashboardAssets } from './dashboard-assets.js';

/**
 * Everything from this origin only: no inline script or style, no framing. Chart.js draws
 * on a canvas and sets sizes through the CSSOM, which `style-src 'self'` allows.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The account dashboard page: `/` sends people to it; its files are served from one table. */
// The dashboard page's own routes (HTML, assets, cookie session): not part of the API.
@ApiExcludeController()
@Controller()
export class DashboardPageController {
  private readonly assets = dashboardAssets();
  private readonly cache = new Map<string, Buffer>();

  @Get()
  root(@Res() reply: FastifyReply): void {
    void reply.redirect('/dashboard', 302);
  }

  @Get('dashboard')
  async page(@Res() reply: FastifyReply): Promise<void> {
    await this.send(reply, 'index.html');
  }

  @Get('dashboard/assets/:name')
  async asset(@Param('name') name: string, @Res() reply: FastifyReply): Promise<void> {
    await this.send(reply, name);
  }

  @Get('dashboard/assets/vendor/:name')
  async vendorAsset(@Param('name') name: string, @Res() reply: FastifyReply): Promise<void> {
    await this.send(reply, `vendor/${name}`);
  }

  private async send(reply: FastifyReply, name: string): Promise<void> {
    const asset = this.assets.get(name);
    if (!asset) throw ApiError.notFound('NOT_FOUND', `The dashboard has no file ${name}`);
    void reply
      .header('Content-Type', asset.contentType)
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', CONTENT_SECURITY_POLICY)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'no-referrer')
      .send(await this.read(name, asset));
  }

  /** Files are read once per process; they change only with a new release. */
  private async read(name: string, asset: DashboardAsset): Promise<Buffer> {
    let body = this.cache.get(name);
    if (!body) {
      body = await fs.readFile(asset.file);
      this.cache.set(name, body);
    }
    return body;
  }
}
