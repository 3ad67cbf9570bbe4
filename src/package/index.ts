/**
 * The package's own files as a face: its root, version, and how to start one
 * of its modules as a child process. A leaf of node built-ins, kept apart
 * from the conformance face so `costlab --version` loads nothing else.
 */
export {
  PACKAGE_IS_CHECKOUT,
  PACKAGE_ROOT,
  costlabCliArgs,
  localResultsDir,
  moduleScriptArgs,
  packageFile,
  packageVersion,
} from './package-files.js';
