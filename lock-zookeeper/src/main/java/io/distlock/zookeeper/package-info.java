/**
 * The ZooKeeper store: locks as ephemeral-sequential nodes on Apache Curator's framework, leases bound to the
 * ZooKeeper session, czxid fencing tokens. Opened through {@code zookeeper://} or {@code zk://} URIs.
 */
package io.distlock.zookeeper;
