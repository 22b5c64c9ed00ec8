package io.distlock.zookeeper;

import java.util.Map;

/**
 * The stacks of this JVM's ZooKeeper client, Curator and distlock session threads, for a failure message that must say
 * what a client that did not come back was doing: still connecting (its send thread), or connected with its event
 * thread or Curator's listener thread stuck so that nobody heard of it.
 */
final class ClientThreads {

    private static final String[] NAMES = {"SendThread", "EventThread", "ConnectionStateManager", "Curator-Framework",
        "distlock-zookeeper-session"};

    private ClientThreads() {
    }

    /** The stacks of the threads whose names contain one of {@link #NAMES}, one block per thread. */
    static String stacks() {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<Thread, StackTraceElement[]> thread : Thread.getAllStackTraces().entrySet()) {
            String name = thread.getKey().getName();
            for (String wanted : NAMES) {
                if (name.contains(wanted)) {
                    out.append('"').append(name).append("\" ").append(thread.getKey().getState()).append('\n');
                    for (StackTraceElement frame : thread.getValue()) {
                        out.append("    at ").append(frame).append('\n');
                    }
                    break;
                }
            }
        }
        return out.toString();
    }
}
