package io.troupe.operators.memory;

import com.sun.management.HotSpotDiagnosticMXBean;

import java.lang.management.ManagementFactory;

/**
 * What an array takes of the heap, for operators that reserve before they allocate: its elements,
 * its header, and under G1 the rest of the regions a large array occupies alone. G1 puts an object
 * of half a region or more ("humongous") into whole regions of its own, so a table of 2^k longs
 * just past a region's size takes two regions, nearly twice its bytes: measured on a GROUP BY of
 * 20M keys under a 1 GiB heap (1 MiB regions), the heap after a full GC held 250 MB more than the
 * tables' arrays while their 1 and 2 MiB slot arrays took 2 and 3 regions each; reserving their
 * bytes alone let the query pass the heap.
 *
 * <p>Stateless; threadsafe. The region size is read once, from the running JVM.
 */
public final class HeapArrays {

    /** Bytes of an array's header (mark, class, length; compressed class pointers), rounded up. */
    private static final int HEADER_BYTES = 16;
    /** G1's region size, or 0 under another collector (which packs large arrays with the rest). */
    private static final long REGION_BYTES = regionBytes();

    private HeapArrays() {
    }

    /** The heap an array of {@code length} elements of {@code elementBytes} each takes. */
    public static long bytes(long length, int elementBytes) {
        long bytes = length * elementBytes + HEADER_BYTES;
        if (REGION_BYTES == 0 || bytes < REGION_BYTES / 2) {
            return bytes;
        }
        return (bytes + REGION_BYTES - 1) / REGION_BYTES * REGION_BYTES;
    }

    private static long regionBytes() {
        try {
            HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (!Boolean.parseBoolean(hotSpot.getVMOption("UseG1GC").getValue())) {
                return 0;
            }
            return Long.parseLong(hotSpot.getVMOption("G1HeapRegionSize").getValue());
        } catch (RuntimeException | LinkageError e) {
            // Not a HotSpot JVM: count the elements alone.
            return 0;
        }
    }
}
