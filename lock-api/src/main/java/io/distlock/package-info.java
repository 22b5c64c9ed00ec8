/**
 * The distlock API: open a {@link io.distlock.LockStore} by URI, ask it for a {@link io.distlock.DistributedLock},
 * and hold a {@link io.distlock.Lease} with a fencing token while you work.
 *
 * <h2>Glossary</h2>
 *
 * <p>One word per idea, in the API, its Javadoc, the SPI and the READMEs:
 *
 * <dl>
 * <dt>store</dt>
 * <dd>Where locks live (a Redis server or cluster, a ZooKeeper ensemble, a SQL database, memory), and the
 * {@link io.distlock.LockStore} that connects one client to it.</dd>
 * <dt>client</dt>
 * <dd>One open {@code LockStore}; a process usually has one, shared by its threads.</dd>
 * <dt>name</dt>
 * <dd>What identifies a lock or a semaphore in a store; equal names are the same lock on every client.</dd>
 * <dt>lock</dt>
 * <dd>A name that at most one holder has at a time ({@link io.distlock.DistributedLock}).</dd>
 * <dt>semaphore, permit, limit</dt>
 * <dd>A name that up to its limit of holders have at a time ({@link io.distlock.DistributedSemaphore}); each holder
 * has one permit. A lock and a semaphore of one name are independent.</dd>
 * <dt>acquire</dt>
 * <dd>Asking the store for a lock or a permit, waiting as told; what it gives is a lease.</dd>
 * <dt>lease</dt>
 * <dd>What an acquire gives the application: the right to the name until it is released or lost
 * ({@link io.distlock.Lease}). Its {@link io.distlock.LeaseState} is held, released or lost.</dd>
 * <dt>lease time</dt>
 * <dd>How long a lease stays valid in a time-bound store without renewal ({@link io.distlock.LockOptions}).</dd>
 * <dt>renewal</dt>
 * <dd>Moving a lease's expiry on, in the background while auto-renew is on, or by
 * {@link io.distlock.Lease#extend}.</dd>
 * <dt>session</dt>
 * <dd>A session-bound store's (ZooKeeper's) connection lifetime: leases end with it rather than by lease time
 * ({@link io.distlock.LeaseModel}).</dd>
 * <dt>holder</dt>
 * <dd>The thread (and its client) that has a lease; {@code LockAdmin} lists holders.</dd>
 * <dt>release</dt>
 * <dd>The holder giving a lease up, so the next waiter can have the name.</dd>
 * <dt>lost</dt>
 * <dd>A lease that ended without its release: its lease time ran out, its session ended, an operator force-released
 * it, or its store was closed ({@link io.distlock.LockLostException}).</dd>
 * <dt>waiter</dt>
 * <dd>A thread blocked in an acquire for a name someone else holds.</dd>
 * <dt>fencing token</dt>
 * <dd>A number carried by each lease, strictly greater than every earlier lease's of the same name: a resource that
 * refuses writes with a lower token than it has seen is safe from a holder that lost its lease
 * ({@link io.distlock.Lease#fencingToken()}).</dd>
 * <dt>owner token</dt>
 * <dd>A secret random value the store keeps with a lease and checks at release and renewal, so only its holder can
 * end or renew it; never shown to the application.</dd>
 * <dt>grant</dt>
 * <dd>A store's answer to a successful acquire, inside the SPI ({@link io.distlock.spi.Grant}): name, owner token,
 * fencing token; the core turns it into a lease.</dd>
 * <dt>hold</dt>
 * <dd>The core's record of one lease of this client (its grant, holder thread, nesting depth, state); internal.</dd>
 * <dt>hand-over</dt>
 * <dd>A release that passes the lock straight to the next waiter of the same client in one store operation,
 * without freeing it in between ({@link io.distlock.Features#handsOver()}).</dd>
 * <dt>features</dt>
 * <dd>What a store offers, stated once ({@link io.distlock.Features}): read it rather than trying an
 * operation.</dd>
 * <dt>backend</dt>
 * <dd>A store's implementation of {@link io.distlock.spi.LockBackend}: the store operations behind the shared
 * core.</dd>
 * </dl>
 */
package io.distlock;
