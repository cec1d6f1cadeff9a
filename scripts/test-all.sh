#!/usr/bin/env bash
# The whole test suite: system packages the tests need, then lint, typecheck and jest.
set -euo pipefail
cd "$(dirname "$0")/.."
npm test
