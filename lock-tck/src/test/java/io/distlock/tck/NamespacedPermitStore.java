package io.distlock.tck;

import io.distlock.LockStore;
import io.distlock.spi.Grant;
import io.distlock.spi.LockBackend;
import io.distlock.spi.Renewal;
import io.distlock.spi.Stores;
import io.distlock.spi.Wait;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A store with a namespace option for the kit's §21, over one mem: space's semaphores as its "server": a lock of
 * {@code NAME} is a semaphore of 1 at key {@code NAMESPACE + NAME}, a semaphore at {@code NAMESPACE + "_permits" +
 * NAME}, as an SQL store names its permit table after its lock table. So a store under {@code B + "_permits"} takes
 * its locks at the keys of the semaphores of the store under {@code B}: the derived-name collision the SQL store
 * had (DEFECTS S3-4b), unless {@code refuseDerived} refuses to open a namespace ending in the suffix, as the SQL store
 * does now.
 */
final class NamespacedPermitStore extends ForwardingPermitBackend {

    static final String SUFFIX = "_permits";

    private final String namespace;

    private NamespacedPermitStore(LockBackend server, String namespace) {
        super(server);
        this.namespace = namespace;
    }

    /** A client of the mem: space {@code space} under {@code namespace}. */
    static LockStore open(String space, String namespace, boolean refuseDerived) {
        if (refuseDerived && namespace.endsWith(SUFFIX)) {
            throw new IllegalArgumentException("namespace '" + namespace + "' ends in '" + SUFFIX
                    + "', which this store appends to a namespace for its semaphores");
        }
        LockBackend server = BackendStores.backend(BackendStores.open(space), LockBackend.class);
        return Stores.over(new NamespacedPermitStore(server, namespace), "namespaced " + namespace);
    }

    @Override
    public Grant acquire(String name, Duration leaseTime, Wait wait) throws InterruptedException {
        return keyed(name, permits.acquirePermit(namespace + name, 1, leaseTime, wait));
    }

    @Override
    public boolean release(Grant grant) {
        return permits.releasePermit((Grant) grant.handle());
    }

    @Override
    public Set<Grant> renew(List<Renewal> renewals) {
        return renewKeyed(renewals);
    }

    @Override
    public Grant acquirePermit(String name, int limit, Duration leaseTime, Wait wait) throws InterruptedException {
        return keyed(name, permits.acquirePermit(namespace + SUFFIX + name, limit, leaseTime, wait));
    }

    @Override
    public boolean releasePermit(Grant grant) {
        return permits.releasePermit((Grant) grant.handle());
    }

    @Override
    public Set<Grant> renewPermits(List<Renewal> renewals) {
        return renewKeyed(renewals);
    }

    @Override
    public int heldPermits(String name) {
        return permits.heldPermits(namespace + SUFFIX + name);
    }

    /** The server's grant at {@code key}, under the name the core asked for (the server's grant as its handle). */
    private static Grant keyed(String name, Grant atKey) {
        return atKey == null ? null
                : new Grant(name, atKey.ownerToken(), atKey.fencingToken(), atKey, atKey.issuedAtNanos());
    }

    private Set<Grant> renewKeyed(List<Renewal> renewals) {
        Set<Grant> lost = permits.renewPermits(renewals.stream()
                .map(r -> new Renewal((Grant) r.grant().handle(), r.leaseTime())).toList());
        Set<Grant> ours = new HashSet<>();
        for (Renewal r : renewals) {
            if (lost.contains((Grant) r.grant().handle())) {
                ours.add(r.grant());
            }
        }
        return ours;
    }
}
