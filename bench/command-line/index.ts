/**
 * The command line's flag readers, shared by every command that takes a
 * number, a size or a list.
 * This is the room's face: the command line imports the room only here.
 */
export {
  FlagProblem,
  nonNegativeInteger,
  oneOf,
  portNumber,
  positiveInteger,
  positiveNumber,
  subsetOf,
} from './flag-values.js';
