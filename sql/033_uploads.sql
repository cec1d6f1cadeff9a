-- Uploaded files (bytes under DATA_DIR/blobs), owned by the uploading organization.
-- `pending` rows were created for a presigned PUT that has not arrived yet.
CREATE TABLE uploads (
  file_id VARCHAR PRIMARY KEY,
  org_id VARCHAR NOT NULL,
  extension VARCHAR NOT NULL,
  status VARCHAR NOT NULL,
  size_bytes BIGINT,
  created_at TIMESTAMPTZ NOT NULL,
  uploaded_at TIMESTAMPTZ,
  expires_at TIMESTAMPTZ
);
