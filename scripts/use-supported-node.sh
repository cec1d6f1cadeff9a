# Sourced by .ci/run and scripts/test-all.sh: makes `node` (and so npm, jest, tsc and every
# process a spec starts) a supported runtime (package.json "engines": Node 22 or 24 LTS).
# Where the machine's own node is older, Node 22 from the npm registry's `node` package is
# put first on PATH; its binary is cached by npx after the first run.
node_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if (( node_major < 22 )); then
  supported_node="$(npx -y node@22 -p process.execPath)"
  PATH="$(dirname "$supported_node"):$PATH"
  export PATH
  echo "use-supported-node: machine node is v${node_major}; using $(node --version) (${supported_node})" >&2
fi
unset node_major supported_node
