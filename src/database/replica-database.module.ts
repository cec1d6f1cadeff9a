import { DynamicModule, Global, Module } from '@nestjs/common';
import { DuckDbService } from './duckdb.service.js';
import { SNAPSHOT_SOURCE, SnapshotFollower, type SnapshotSource } from './snapshot-follower.js';

/**
 * A read replica's DuckDB (`DOCPROC_MODE=export-replica`): the writer's newest published
 * snapshot, read-only, swapped when a newer one appears. It stands in for `DatabaseModule`
 * and is global like it, so the database is open before the modules reading it start (the
 * accounts plane reads its session secret at start).
 */
@Global()
@Module({})
export class ReplicaDatabaseModule {
  static following(source: SnapshotSource): DynamicModule {
    return {
      module: ReplicaDatabaseModule,
      providers: [{ provide: SNAPSHOT_SOURCE, useValue: source }, DuckDbService, SnapshotFollower],
      exports: [DuckDbService, SnapshotFollower],
    };
  }
}
