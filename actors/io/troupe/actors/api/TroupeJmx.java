package io.troupe.actors.api;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import java.lang.management.ManagementFactory;
import java.util.Hashtable;

/**
 * The {@link TroupeMXBean} of one Troupe ({@code troupe.metrics.jmx = on}): registered in the platform
 * MBean server once the Troupe has started, unregistered by its close. A name already taken (two
 * class loaders' Troupes of the same name in one JVM) or a server that refuses is logged, not fatal:
 * monitoring never stops a Troupe from running.
 *
 * <p>Threadsafe: every attribute reads the Troupe's threadsafe {@link Troupe#status()} or
 * {@link Troupe#counters()} when asked; nothing is cached.
 */
final class TroupeJmx implements TroupeMXBean {

    private static final Logger LOG = LoggerFactory.getLogger(TroupeJmx.class);

    private final Troupe troupe;
    private final ObjectName name;

    private TroupeJmx(Troupe troupe, ObjectName name) {
        this.troupe = troupe;
        this.name = name;
    }

    /** {@code io.troupe:type=Troupe,name=<troupeName>}. */
    static ObjectName objectName(String troupeName) {
        Hashtable<String, String> keys = new Hashtable<>();
        keys.put("type", "Troupe");
        keys.put("name", troupeName);
        try {
            return new ObjectName("io.troupe", keys);
        } catch (JMException e) {
            throw new IllegalArgumentException("not a JMX name: " + troupeName, e);
        }
    }

    /** Registers {@code troupe}'s MXBean; null (logged) when the server refuses it. */
    static TroupeJmx register(Troupe troupe) {
        TroupeJmx bean = new TroupeJmx(troupe, objectName(troupe.name()));
        try {
            server().registerMBean(new StandardMBean(bean, TroupeMXBean.class, true), bean.name);
            return bean;
        } catch (JMException e) {
            LOG.warn("[{}] troupe.metrics.jmx = on, but its MXBean {} could not be registered: {}", troupe.name(),
                    bean.name, e.toString());
            return null;
        }
    }

    /** Takes the MXBean out of the server (gone already: nothing to do). */
    void unregister() {
        try {
            server().unregisterMBean(name);
        } catch (JMException e) {
            LOG.warn("[{}] its MXBean {} could not be unregistered: {}", troupe.name(), name, e.toString());
        }
    }

    private static MBeanServer server() {
        return ManagementFactory.getPlatformMBeanServer();
    }

    @Override
    public int getRunningQueries() {
        return troupe.status().runningQueries();
    }

    @Override
    public int getQueuedQueries() {
        return troupe.status().queuedQueries();
    }

    @Override
    public int getLiveWorkers() {
        return troupe.status().liveWorkers();
    }

    @Override
    public int getOpenChannels() {
        return troupe.status().openChannels();
    }

    @Override
    public long getMemoryUsedBytes() {
        return troupe.status().memoryInUseBytes();
    }

    @Override
    public long getMemoryBudgetBytes() {
        return troupe.memoryArena().budgetBytes();
    }

    @Override
    public long getSpillHeldBytes() {
        return troupe.status().spillHeldBytes();
    }

    @Override
    public long getQueriesAdmitted() {
        return troupe.counters().admitted();
    }

    @Override
    public long getQueriesSucceeded() {
        return troupe.counters().ended(QueryEvent.Outcome.SUCCEEDED);
    }

    @Override
    public long getQueriesFailed() {
        return troupe.counters().ended(QueryEvent.Outcome.FAILED);
    }

    @Override
    public long getQueriesCancelled() {
        return troupe.counters().ended(QueryEvent.Outcome.CANCELLED);
    }

    @Override
    public long getQueriesTimedOut() {
        return troupe.counters().ended(QueryEvent.Outcome.TIMED_OUT);
    }

    @Override
    public long getQueriesRejected() {
        return troupe.counters().ended(QueryEvent.Outcome.REJECTED);
    }

    @Override
    public long getQueriesRejectedQueueFull() {
        return troupe.counters().rejected(QueryRejectedException.Reason.QUEUE_FULL);
    }

    @Override
    public long getQueriesRejectedQueueTimeout() {
        return troupe.counters().rejected(QueryRejectedException.Reason.QUEUE_TIMEOUT);
    }

    @Override
    public long getQueriesRejectedNeverFits() {
        return troupe.counters().rejected(QueryRejectedException.Reason.NEVER_FITS);
    }

    @Override
    public long getQueriesRejectedClosed() {
        return troupe.counters().rejected(QueryRejectedException.Reason.CLOSED);
    }

    @Override
    public long getBackPressureEvents() {
        return troupe.counters().backPressureEvents();
    }

    @Override
    public long getSpillWrittenBytes() {
        return troupe.counters().spillWrittenBytes();
    }
}
