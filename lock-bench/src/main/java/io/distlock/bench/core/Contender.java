package io.distlock.bench.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One lock implementation under test against one store. It opens independent clients on demand and keeps them for
 * the whole run, so every scenario after the first finds warm connections, as a long-running service would.
 */
public abstract class Contender implements AutoCloseable {

    private final String name;
    private final Role role;
    private final List<LockClient> clients = new ArrayList<>();
    private final ReentrantLock clientsLock = new ReentrantLock();

    protected Contender(String name, Role role) {
        this.name = name;
        this.role = role;
    }

    /** The name shown in the report, e.g. {@code Redisson RLock}. */
    public final String name() {
        return name;
    }

    /** What the contender stands for. */
    public final Role role() {
        return role;
    }

    /** False for raw limits, which only do one attempt and cannot wait for a held lock. */
    public boolean canWait() {
        return role != Role.RAW;
    }

    /** False where keeping leases alive is not this contender's job (raw limits, libraries without auto-renew). */
    public boolean canHoldWithRenewal() {
        return false;
    }

    /** The {@code index}-th independent client, opened on first use and kept until {@link #close()}. */
    public final LockClient client(int index) throws Exception {
        clientsLock.lock();
        try {
            while (clients.size() <= index) {
                clients.add(openClient());
            }
            return clients.get(index);
        } finally {
            clientsLock.unlock();
        }
    }

    /** Opens a new independent client with the contender's usual settings. */
    protected abstract LockClient openClient() throws Exception;

    /**
     * Opens a new independent client whose locks are kept alive in the background with the given lease time, for
     * the held-leases scenario. The caller closes it.
     *
     * @throws UnsupportedOperationException if {@link #canHoldWithRenewal()} is false
     */
    public LockClient openRenewingClient(Duration leaseTime) throws Exception {
        throw new UnsupportedOperationException(name + " does not renew leases in the background");
    }

    @Override
    public final void close() throws Exception {
        clientsLock.lock();
        try {
            closeClients();
        } finally {
            clientsLock.unlock();
        }
    }

    private void closeClients() throws Exception {
        Exception first = null;
        for (LockClient client : clients) {
            try {
                client.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        clients.clear();
        if (first != null) {
            throw first;
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
