// Bytes a process has allocated on V8's heap, counted so that when garbage collection happens does not
// change the count. The heap's size alone (used_heap_size before and after a burst) would not do: it
// falls at every collection, so the difference says how much survived, not how much was allocated, and
// a collection just before or just after the second reading moves it by tens of megabytes.
//
// V8 counts allocation itself since 13.x (HeapStatistics.total_allocated_bytes), and Node reports it in
// v8.getHeapStatistics() from the releases that carry it: where it is there, it is read. The production
// runtime's Node 24 does not have it yet, so there the count is kept from V8's own per-collection
// statistics (v8.GCProfiler, Node 18.15 and later): whatever a collection freed was allocated before it,
// so allocated so far = the heap in use now + everything the collections freed since counting began.
// Both count every allocation, unlike the sampling heap profiler, which estimates from one allocation in
// every so many kilobytes and so varies run to run; neither adds work to an allocation. Buffers' memory
// outside the heap (external memory) is not counted by either: it is the heap's garbage that costs
// collections, and that is what this measures.
import v8 from 'node:v8';

/** Starts counting; the function answers the bytes allocated on the heap since then. */
export function heapAllocationCounter(): () => number {
  const reported = () => (v8.getHeapStatistics() as { total_allocated_bytes?: number }).total_allocated_bytes;
  const start = reported();
  if (start !== undefined) return () => (reported() ?? start) - start;

  let profiler = new v8.GCProfiler();
  profiler.start();
  let freed = 0;
  const startUsed = v8.getHeapStatistics().used_heap_size;
  return () => {
    // The profiler hands its collections over only when stopped; a new one goes on counting at once.
    const { statistics } = profiler.stop();
    profiler = new v8.GCProfiler();
    profiler.start();
    for (const gc of statistics) {
      freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
    }
    return v8.getHeapStatistics().used_heap_size + freed - startUsed;
  };
}
