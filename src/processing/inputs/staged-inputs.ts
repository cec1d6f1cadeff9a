import fs from 'node:fs';
import path from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';

/** The file names of a job's downloaded inputs, by their position in its `input` list. */
export type StagedNames = Record<number, string>;

const MANIFEST = 'manifest.json';
/** A staged input's reference (`<job id>/<position>`), as a task carries it. */
const REFERENCE = /^[A-Za-z0-9_-]+\/\d+$/;

/**
 * URL inputs downloaded ahead of their job, one directory per job under DATA_DIR/inputs
 * (shared with Redis workers, like upload blobs): `<position>` files, then a manifest
 * written last, by rename, so a directory with a manifest is complete and one without is
 * an interrupted download that is started again. Removed when the job finishes.
 */
@Injectable()
export class StagedInputs {
  readonly root: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.root = path.join(config.dataDir, 'inputs');
  }

  private dir(jobId: string): string {
    return path.join(this.root, path.basename(jobId));
  }

  /** An empty directory for the job's downloads (what an interrupted attempt left is dropped). */
  async prepare(jobId: string): Promise<void> {
    await this.remove(jobId);
    await fs.promises.mkdir(this.dir(jobId), { recursive: true, mode: 0o700 });
  }

  /** Where the input at `position` is downloaded to. */
  fileOf(jobId: string, position: number): string {
    return path.join(this.dir(jobId), String(position));
  }

  /** Marks the job's downloads complete. */
  async complete(jobId: string, names: StagedNames): Promise<void> {
    const manifest = path.join(this.dir(jobId), MANIFEST);
    await fs.promises.writeFile(`${manifest}.tmp`, JSON.stringify(names), { mode: 0o600 });
    await fs.promises.rename(`${manifest}.tmp`, manifest);
  }

  /** The names of a job's complete downloads; null when they are not (all) there. */
  async names(jobId: string): Promise<StagedNames | null> {
    try {
      const text = await fs.promises.readFile(path.join(this.dir(jobId), MANIFEST), 'utf8');
      return JSON.parse(text) as StagedNames;
    } catch {
      return null;
    }
  }

  /** The reference a task carries for the input at `position`. */
  reference(jobId: string, position: number): string {
    return `${path.basename(jobId)}/${position}`;
  }

  /** The file of a reference; null for anything that is not one (a task from elsewhere). */
  fileOfReference(reference: string): string | null {
    return REFERENCE.test(reference) ? path.join(this.root, reference) : null;
  }

  async remove(jobId: string): Promise<void> {
    await fs.promises.rm(this.dir(jobId), { recursive: true, force: true });
  }

  /** Job ids with a directory here, complete or not. */
  async jobIds(): Promise<string[]> {
    try {
      return await fs.promises.readdir(this.root);
    } catch {
      return [];
    }
  }
}
