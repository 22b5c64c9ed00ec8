package io.distlock.chaos;

import io.distlock.tck.check.FencedRegister;
import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.TempDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.netcrusher.core.reactor.NioReactor;
import org.netcrusher.tcp.TcpCrusher;
import org.netcrusher.tcp.TcpCrusherBuilder;

/**
 * One fault run: a store target, optionally a TCP proxy in front of it, worker JVMs running the workload against a
 * fenced register, and the live stream of their events, so a scenario can act at the right moment (pause the worker
 * that just acquired, for example). Closing it stops the workers and the proxy; the target belongs to the caller.
 */
final class ChaosRun implements AutoCloseable {

    private final StoreTarget target;
    private final WorkerShape shape;
    private final WorkerProgram program;
    private final Path dir = TempDirs.create("chaos-run");
    private final Path registerFile = dir.resolve("register");
    private final String lockName = "chaos:" + UUID.randomUUID();
    private final BlockingQueue<Event> live = new LinkedBlockingQueue<>();
    private final List<WorkerProcess> workers = new ArrayList<>();
    private final List<WorkerProcess> retired = new ArrayList<>();
    private NioReactor reactor;
    private TcpCrusher proxy;
    private int clientPort;
    private int nextWorker;
    private long faultMoment;

    ChaosRun(StoreTarget target, boolean throughProxy) throws Exception {
        this(target, throughProxy, WorkerShape.forLease(target.lease()));
    }

    ChaosRun(StoreTarget target, boolean throughProxy, WorkerShape shape) throws Exception {
        this(target, throughProxy, shape, WorkerProgram.LOCK);
    }

    /** A run whose workers run {@code program} (another workload than the lock's). */
    ChaosRun(StoreTarget target, boolean throughProxy, WorkerShape shape, WorkerProgram program) throws Exception {
        this.target = target;
        this.shape = shape;
        this.program = program;
        this.clientPort = target.port();
        if (throughProxy) {
            reactor = new NioReactor();
            clientPort = FreePorts.next();
            proxy = TcpCrusherBuilder.builder().withReactor(reactor).withBindAddress("127.0.0.1", clientPort)
                    .withConnectAddress("127.0.0.1", target.port()).buildAndOpen();
        }
    }

    StoreTarget target() {
        return target;
    }

    TcpCrusher proxy() {
        return proxy;
    }

    /** Starts {@code n} workers and waits until the lock has been acquired at least once. */
    void startWorkers(int n) throws InterruptedException {
        for (int i = 0; i < n; i++) {
            startWorker();
        }
        if (awaitEvent(WorkerProgram::isGrant, Duration.ofSeconds(90)) == null) {
            throw new IllegalStateException("no worker acquired the lock within 90 s on " + target.store());
        }
    }

    WorkerProcess startWorker() {
        return startWorker(shape);
    }

    /**
     * Starts a worker whose JVM runs behind {@code prefix} (a wrong wall clock, for example), labelled with
     * {@code tag} so its events can be told apart.
     */
    WorkerProcess startWorker(List<String> prefix, String tag) {
        return startWorker(shape.wrappedIn(prefix), "-" + tag);
    }

    private WorkerProcess startWorker(WorkerShape workerShape) {
        return startWorker(workerShape, "");
    }

    private WorkerProcess startWorker(WorkerShape workerShape, String suffix) {
        WorkerProcess w = WorkerProcess.start(program, target.uri(clientPort), "w" + (nextWorker++) + suffix,
                lockName, registerFile, target.lease(), workerShape, target.holdBound().multipliedBy(2), live);
        workers.add(w);
        return w;
    }

    /**
     * Stops a random worker gracefully (after its current round) and retires it, preferring one whose label does not
     * contain {@code sparedTag}.
     */
    WorkerProcess retireRandomWorker(String sparedTag) {
        List<WorkerProcess> others = workers.stream().filter(x -> !x.label().contains(sparedTag)).toList();
        List<WorkerProcess> pool = others.isEmpty() ? workers : others;
        WorkerProcess w = pool.get(java.util.concurrent.ThreadLocalRandom.current().nextInt(pool.size()));
        w.stop(Duration.ofSeconds(20));
        retire(w);
        return w;
    }

    /** The worker called {@code label}. */
    WorkerProcess worker(String label) {
        return workers.stream().filter(w -> w.label().equals(label)).findFirst().orElseThrow();
    }

    /**
     * Notes when the current fault took effect (nanoTime), for faults that wait for their moment (a row deletion
     * waits for the lock to be free); returns whether there was such a moment ({@code nanos > 0}).
     */
    boolean faultHitAt(long nanos) {
        if (nanos > 0) {
            faultMoment = nanos;
        }
        return nanos > 0;
    }

    /** When the current fault took effect. */
    long faultMoment() {
        return faultMoment;
    }

    /** The lock name every worker of this run contends for. */
    /** Whether this run's workers take semaphore permits (see {@link WorkerProgram#takesPermits()}). */
    boolean takesPermits() {
        return program.takesPermits();
    }

    String lockName() {
        return lockName;
    }

    /**
     * The worker to hit with a client fault: the one holding the lock right now if there is one (the fault then
     * lands wherever in its hold it happens to be), otherwise any live worker (between holds, or while waiting).
     */
    WorkerProcess victim() {
        List<WorkerProcess> holding = workers.stream().filter(WorkerProcess::isHolding).toList();
        List<WorkerProcess> pool = holding.isEmpty() ? workers : holding;
        return pool.get(java.util.concurrent.ThreadLocalRandom.current().nextInt(pool.size()));
    }

    /** Waits until {@code w} has opened its store (a JVM under libfaketime starts slowly); fails after 90 s. */
    void awaitReady(WorkerProcess w) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!w.isReady()) {
            if (System.nanoTime() - deadline > 0 || !w.isAlive()) {
                throw new IllegalStateException("worker " + w.label() + " did not get ready");
            }
            Thread.sleep(50); // polling the worker's READY line, bounded by the deadline
        }
    }

    /** Removes a dead worker from the running set (its history is kept). */
    void retire(WorkerProcess w) {
        workers.remove(w);
        retired.add(w);
    }

    /** The next live event matching {@code filter}, or null after {@code timeout}. */
    Event awaitEvent(Predicate<Event> filter, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            Event e = live.poll(left, TimeUnit.NANOSECONDS);
            if (e != null && filter.test(e)) {
                return e;
            }
        }
    }

    /** The next acquisition by any worker; fails if none comes within 60 s. */
    Event awaitAcquisition() throws InterruptedException {
        Event e = awaitEvent(WorkerProgram::isGrant, Duration.ofSeconds(60));
        if (e == null) {
            throw new IllegalStateException("no worker acquired the lock within 60 s on " + target.store());
        }
        return e;
    }

    /** Forgets events seen so far, so the next wait sees only new ones. */
    void drain() {
        live.clear();
    }

    /** Lets the workload run for {@code d} (events keep flowing into the history). */
    void runFor(Duration d) throws InterruptedException {
        Thread.sleep(d.toMillis()); // the workload's own running time, not a synchronisation
    }

    /** Stops every worker and returns all histories, dead workers' included. */
    List<Event> stopAndCollect() {
        List<Event> all = new ArrayList<>();
        for (WorkerProcess w : workers) {
            w.stop(Duration.ofSeconds(20));
        }
        for (WorkerProcess w : workers) {
            all.addAll(w.history());
        }
        for (WorkerProcess w : retired) {
            all.addAll(w.history());
        }
        return all;
    }

    FencedRegister.State register() {
        return new FencedRegister(registerFile).state();
    }

    @Override
    public void close() {
        for (WorkerProcess w : workers) {
            w.kill();
        }
        if (proxy != null) {
            proxy.close();
            reactor.close();
        }
        TempDirs.delete(dir);
    }
}
