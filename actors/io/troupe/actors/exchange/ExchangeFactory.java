package io.troupe.actors.exchange;

import io.troupe.operators.exec.BatchConsumer;
import io.troupe.operators.exec.ExecContext;
import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.PipelineRun;
import io.troupe.operators.fragment.ExchangeKind;
import io.troupe.operators.fragment.ExchangeSpec;
import io.troupe.operators.fragment.NodeRouter;
import io.troupe.operators.fragment.SpreadPlan;
import io.troupe.operators.sort.SortedStreams;
import io.troupe.transport.BatchChannel;
import io.troupe.transport.BatchReceiver;
import io.troupe.transport.TransportRuntime;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

/**
 * The one path from an exchange's description ({@link ExchangeSpec}, planned by the compiler) to its
 * running parts: the channels, one per producer; each producer's end ({@link GatherOutlet}); the
 * run of the pipeline the producers take part in; and the behavior of the exchange actor that the
 * coordinator spawns. It reads the kind from the description and never from the pipelines. The
 * package comment has the protocol these parts follow.
 *
 * <p>Stateless; {@link #build} runs on the coordinator's thread.
 */
public final class ExchangeFactory {

    private ExchangeFactory() {
    }

    /**
     * What the coordinator provides to build an exchange of one query.
     *
     * @param ctx                 the query's context
     * @param producers           producers: one channel each (the workers of the pipeline)
     * @param transport           where channels come from; the stream ids are the transport's to assign
     * @param handOver            where the result goes when the query is streamed; null to collect it in
     *                            the result sink
     * @param leaderParticipation whether a Gather runs morsels of its pipeline itself
     * @param backPressureEvents  the Troupe's count of sends that waited for room
     * @param reportTo            where the exchange actor reports
     * @param producerName        producer {@code i}'s name, for errors
     * @param opened              every channel opened is added here at once, so that the coordinator
     *                            closes it however the query ends, a build that failed half way included
     */
    public record Site(ExecContext ctx, int producers, TransportRuntime transport, BatchHandOver handOver,
                       boolean leaderParticipation, LongAdder backPressureEvents, ActorRef<Exchange.Report> reportTo,
                       IntFunction<String> producerName, List<BatchChannel> opened) {
    }

    /**
     * An exchange ready to run.
     *
     * @param run      the run of the pipeline the producers drive, opened; its sink is fed by the exchange
     * @param outlets  producer {@code i}'s end of its channel, at index i
     * @param behavior the exchange actor, to spawn on a dispatcher other than the producers'
     * @param name     the actor's name
     */
    public record Built(PipelineRun run, List<GatherOutlet> outlets, Behavior<Exchange.Command> behavior, String name) {
    }

    /**
     * The pipeline whose run the exchange is built with: the one whose output a Gather takes, or the
     * one whose source a Gather Merge splits (its producers stream the sorted runs that source would
     * read; the pipeline's operators run after the merge).
     */
    public static int stage(ExchangeSpec spec) {
        return spec.kind() instanceof ExchangeKind.GatherMerge ? spec.to() : spec.from();
    }

    /**
     * Builds {@code spec} over channels, for the run of {@code pipeline} (its {@link #stage}).
     *
     * @throws IllegalArgumentException when {@code spec} is elided, is built with another pipeline, or
     *         is of a kind that runs over channels only between JVMs (a Repartition, a Broadcast, a Forward)
     */
    public static Built build(ExchangeSpec spec, Pipeline pipeline, Site site) {
        if (spec.mode() != ExchangeSpec.Mode.CHANNELS || stage(spec) != pipeline.id()) {
            throw new IllegalArgumentException("query " + site.ctx().queryId() + ": " + spec
                    + " is not built over channels with pipeline " + pipeline.id());
        }
        if (spec.kind() instanceof ExchangeKind.Gather) {
            return gather(pipeline, site);
        }
        if (spec.kind() instanceof ExchangeKind.GatherMerge) {
            return gatherMerge(spec, pipeline, site);
        }
        throw new IllegalArgumentException("query " + site.ctx().queryId() + ": " + spec + " over channels: in one JVM"
                + " only a Gather and a Gather Merge move batches; the others read the producer's shared state");
    }

    /** The workers run the pipeline into their channels; the Gather (with its own share) feeds the result. */
    private static Built gather(Pipeline pipeline, Site site) {
        PipelineRun run = PipelineRun.open(pipeline, site.ctx());
        BatchConsumer consumer = result(run, site);
        List<BatchReceiver> inputs = new ArrayList<>();
        List<GatherOutlet> outlets = channels(site, inputs);
        PipelineRun.WorkerTask leader = site.leaderParticipation() ? Gather.bindLeader(run, consumer) : null;
        return new Built(run, outlets, Gather.create(inputs, consumer, site.handOver(), leader, site.reportTo(),
                site.ctx().queryId()), "gather-p" + pipeline.id());
    }

    /** The workers stream the sort's runs, one each; the Gather Merge runs the pipeline's operators after the merge. */
    private static Built gatherMerge(ExchangeSpec spec, Pipeline pipeline, Site site) {
        SortedStreams sorted = SortedStreams.of(pipeline).orElseThrow(() -> new IllegalArgumentException(
                "query " + site.ctx().queryId() + ": " + spec + ": pipeline " + pipeline.id()
                        + " does not read a sort's output alone"));
        PipelineRun run = PipelineRun.open(sorted.streamPipeline(site.producers()), site.ctx());
        BatchConsumer consumer = result(run, site);
        List<BatchReceiver> inputs = new ArrayList<>();
        List<GatherOutlet> outlets = channels(site, inputs);
        BatchConsumer chain = sorted.chain(site.ctx(), consumer);
        return new Built(run, outlets, GatherMerge.create(inputs, sorted.merger(site.ctx(), inputs.size()), chain,
                site.handOver(), site.reportTo(), site.ctx().queryId()), "gather-merge-p" + pipeline.id());
    }

    /**
     * What the coordinator of one node's part of a spread query provides to build the exchange between
     * nodes in front of one pipeline's sink.
     *
     * @param ctx                the query's context
     * @param run                the pipeline's run here, opened
     * @param plan               the query's spread plan
     * @param links              the query's streams between nodes
     * @param workers            workers per node of this pipeline
     * @param backPressureEvents the Troupe's count of sends that waited for room
     * @param reportTo           where the exchange actor reports
     * @param producerName       worker {@code i}'s name, for errors
     * @param transport          where the coordinator's channels from its own workers to the result's Gather come from
     * @param handOver           where the result goes when the query is streamed; null to collect it in the sink
     * @param opened             every such channel, added at once, for the coordinator to close
     */
    public record NodeSite(ExecContext ctx, PipelineRun run, SpreadPlan plan, NodeLinks links, int workers,
                           LongAdder backPressureEvents, ActorRef<Exchange.Report> reportTo,
                           IntFunction<String> producerName, TransportRuntime transport, BatchHandOver handOver,
                           List<BatchChannel> opened) {
    }

    /**
     * The exchange between nodes in front of a pipeline's sink, on this node.
     *
     * @param outlets  worker {@code i}'s outlet at index i; empty when this node runs none of the pipeline
     * @param inbound  the exchange actor that feeds the rows other nodes send here into the sink, to spawn
     *                 on a dispatcher other than the workers'; null when no node sends any
     * @param name     the actor's name
     */
    public record AcrossNodes(List<WorkerOutlet> outlets, Behavior<Exchange.Command> inbound, String name) {
    }

    /**
     * Builds the exchange between nodes in front of {@code site}'s pipeline's sink: an outlet per worker
     * that routes its rows by the pipeline's route ({@link SpreadPlan#route}), opening a stream to each
     * other node it sends to, and a Gather over a stream from each worker of each node that sends here,
     * feeding a local of the sink. On the coordinator, the pipeline that makes the result sends its own
     * workers' rows through channels to that Gather too, which delivers every node's into the stream's
     * hand-over or the result sink: the spread query's top Gather. Every stream opened goes to
     * {@code site.links()}, which closes it however the query ends.
     */
    public static AcrossNodes acrossNodes(NodeSite site) {
        int pipeline = site.run().pipeline().id();
        NodeLinks links = site.links();
        SpreadPlan plan = site.plan();
        boolean top = links.self() == SpreadPlan.COORDINATOR && plan.makesResult(pipeline);
        List<BatchReceiver> inputs = new ArrayList<>();
        List<String> producers = new ArrayList<>();
        List<WorkerOutlet> outlets = new ArrayList<>();
        if (plan.runsOn(pipeline, links.self())) {
            List<Integer> destinations = plan.destinations(pipeline, links.self(), links.nodes());
            for (int w = 0; w < site.workers(); w++) {
                String name = site.producerName().apply(w);
                GatherOutlet[] toNodes = new GatherOutlet[links.nodes()];
                for (int to : destinations) {
                    if (to != links.self()) {
                        toNodes[to] = new GatherOutlet(links.sender(pipeline, w, to), site.ctx(), name + " to node " + to,
                                site.backPressureEvents());
                    } else if (top) {
                        BatchChannel channel = site.transport().openChannel();
                        site.opened().add(channel);
                        inputs.add(channel.receiver());
                        producers.add(name);
                        toNodes[to] = new GatherOutlet(channel.sender(), site.ctx(), name, site.backPressureEvents());
                    }
                }
                outlets.add(new NodeOutlet(new NodeRouter(plan.route(pipeline), links.self(), links.nodes()),
                        links.self(), site.run().sinkState(), destinations, toNodes));
            }
        }
        for (int from : plan.sendersTo(pipeline, links.self(), links.nodes())) {
            for (int w = 0; w < site.workers(); w++) {
                inputs.add(links.receiver(pipeline, from, w));
                producers.add(links.nodeName(from) + "'s worker " + w);
            }
        }
        BatchConsumer consumer = top && site.handOver() != null ? site.handOver() : site.run().sinkState().local();
        Behavior<Exchange.Command> inbound = inputs.isEmpty() ? null : Gather.create(inputs, producers, consumer,
                top ? site.handOver() : null, null, site.reportTo(), site.ctx().queryId());
        return new AcrossNodes(outlets, inbound, top ? "gather-p" + pipeline : "from-nodes-p" + pipeline);
    }

    /** Where the exchange delivers: the stream's hand-over, or a local of the result sink. */
    private static BatchConsumer result(PipelineRun run, Site site) {
        return site.handOver() != null ? site.handOver() : run.sinkState().local();
    }

    /** Opens one channel per producer: its receiver goes to {@code inputs}, its sender into the outlet returned. */
    private static List<GatherOutlet> channels(Site site, List<BatchReceiver> inputs) {
        List<GatherOutlet> outlets = new ArrayList<>();
        for (int p = 0; p < site.producers(); p++) {
            BatchChannel channel = site.transport().openChannel();
            site.opened().add(channel);
            inputs.add(channel.receiver());
            outlets.add(new GatherOutlet(channel.sender(), site.ctx(), site.producerName().apply(p),
                    site.backPressureEvents()));
        }
        return outlets;
    }
}
