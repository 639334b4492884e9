/** The types aedes-persistence ships for its memory persistence, under the path it is imported from. */
declare module 'aedes-persistence/asyncPersistence.js' {
  import MemoryPersistence from 'aedes-persistence/types/asyncPersistence.js';
  export default MemoryPersistence;
}
