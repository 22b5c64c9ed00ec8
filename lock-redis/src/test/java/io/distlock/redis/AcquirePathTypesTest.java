package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jdi.Bootstrap;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.LaunchingConnector;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.MethodEntryEvent;
import com.sun.jdi.event.VMDeathEvent;
import com.sun.jdi.event.VMDisconnectEvent;
import com.sun.jdi.request.EventRequest;
import com.sun.jdi.request.MethodEntryRequest;
import io.distlock.Lease;
import io.distlock.LockStore;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How many distlock types an uncontended {@code store.lock("x").tryAcquire(d)} then {@code close()} on Redis runs
 * code of, on the calling thread (issue 30; the walkthrough in lock-api's README names them): a JVM under JDI takes
 * five warm-up pairs on the same name, then the traced one; every method or constructor entered counts its type,
 * nested and lambda classes with their outer type. Interfaces only dispatched through and classes of which only
 * constants are read do not count here (the README's list counts them). A new type on the path fails this test:
 * raise the bound only with the walkthrough.
 */
class AcquirePathTypesTest {

    /** The count when the bound was set; 27 on main before issue 30's first merges, by the same trace. */
    private static final int MOST_TYPES = 25;

    @RegisterExtension
    static final OwnRedisServer server = new OwnRedisServer();

    @Test
    void anAcquireAndItsCloseRunCodeOfAtMostTheCountedTypes() throws Exception {
        TreeSet<String> types = trace(server.uri(""));
        assertThat(types).as("types entered: %s", types).contains("io.distlock.redis.RedisBackend",
                "io.distlock.core.BackendLockStore").hasSizeLessThanOrEqualTo(MOST_TYPES);
    }

    /** The distlock types whose code the traced pair in {@link Traced} runs on its thread. */
    private static TreeSet<String> trace(String uri) throws Exception {
        LaunchingConnector connector = Bootstrap.virtualMachineManager().defaultConnector();
        Map<String, Connector.Argument> args = connector.defaultArguments();
        args.get("options").setValue("-cp " + System.getProperty("java.class.path"));
        args.get("main").setValue(Traced.class.getName() + " " + uri);
        VirtualMachine vm = connector.launch(args);
        drain(vm.process().getInputStream());
        drain(vm.process().getErrorStream());
        TreeSet<String> types = new TreeSet<>();
        try {
            MethodEntryRequest marks = vm.eventRequestManager().createMethodEntryRequest();
            marks.addClassFilter(Traced.class.getName());
            marks.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
            marks.enable();
            MethodEntryRequest traced = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (true) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                EventSet set = left > 0 ? vm.eventQueue().remove(left) : null;
                assertThat(set).as("the traced JVM ended within 60 s").isNotNull();
                for (Event e : set) {
                    if (e instanceof VMDeathEvent || e instanceof VMDisconnectEvent) {
                        return types;
                    }
                    if (e instanceof MethodEntryEvent entry) {
                        String type = entry.method().declaringType().name();
                        if (type.equals(Traced.class.getName()) && entry.method().name().equals("begin")) {
                            traced = vm.eventRequestManager().createMethodEntryRequest();
                            traced.addClassFilter("io.distlock.*");
                            traced.addClassExclusionFilter(AcquirePathTypesTest.class.getName() + "*");
                            traced.addThreadFilter(entry.thread());
                            traced.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
                            traced.enable();
                        } else if (type.equals(Traced.class.getName()) && entry.method().name().equals("end")) {
                            traced.disable();
                            marks.disable();
                        } else if (!type.startsWith(AcquirePathTypesTest.class.getName())) {
                            types.add(type.contains("$") ? type.substring(0, type.indexOf('$')) : type);
                        }
                    }
                }
                set.resume();
            }
        } finally {
            vm.process().destroy();
        }
    }

    private static void drain(java.io.InputStream from) {
        Thread t = new Thread(() -> {
            try {
                from.transferTo(OutputStream.nullOutputStream());
            } catch (java.io.IOException ended) {
                // the traced JVM ended
            }
        }, "traced-jvm-output");
        t.setDaemon(true);
        t.start();
    }

    /** The traced JVM: warm-up pairs, then the pair between {@link #begin} and {@link #end}. */
    static final class Traced {

        public static void main(String[] args) throws Exception {
            try (LockStore store = LockStore.open(args[0])) {
                for (int i = 0; i < 5; i++) {
                    store.lock("x").tryAcquire(Duration.ofSeconds(5)).orElseThrow().close();
                }
                begin();
                Lease lease = store.lock("x").tryAcquire(Duration.ofSeconds(5)).orElseThrow();
                lease.close();
                end();
            }
        }

        static void begin() {
        }

        static void end() {
        }
    }
}
