// A worker-thread entry that fails as a defect would: a ReferenceError when it loads.
// eslint-disable-next-line no-undef
notDefinedAnywhere.run();
