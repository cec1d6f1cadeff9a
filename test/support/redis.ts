/** The real Redis of this test run (started by global setup or scripts/test-all.sh). */
export function testRedisUrl(): string {
  const url = process.env.TEST_REDIS_URL;
  if (!url) {
    throw new Error(
      'TEST_REDIS_URL is not set: run the specs through jest (its global setup starts ' +
        'Redis with scripts/redis.sh) and do not set DOCPROC_TEST_SERVICES=none',
    );
  }
  return url;
}
