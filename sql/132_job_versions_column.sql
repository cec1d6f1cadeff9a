-- A job's pinned versions (the versions resolved when its request was accepted; a pipeline
-- run's plan) live in a column of their own, and its operation is its `type`: the stored
-- request is the request body as validated, with no `__kind` / `__versions` keys beside it
-- (docs/decisions/0361-job-operation-and-versions-as-columns.md). Rows stored before are
-- moved here; requests that live as files are moved by the data step of this migration
-- (src/database/data-migrations.ts). Written to run twice (a data step may be interrupted).
ALTER TABLE processing_jobs ADD COLUMN IF NOT EXISTS versions JSON;
UPDATE processing_jobs
   SET versions = json_extract(request, '$.__versions')
 WHERE versions IS NULL AND json_extract(request, '$.__versions') IS NOT NULL;
UPDATE processing_jobs
   SET request = json_merge_patch(request, '{"__kind": null, "__versions": null}')
 WHERE json_exists(request, '$.__kind') OR json_exists(request, '$.__versions');
