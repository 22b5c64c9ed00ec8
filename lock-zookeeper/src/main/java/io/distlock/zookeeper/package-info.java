/**
 * The ZooKeeper store: locks as ephemeral-sequential nodes on Apache Curator's framework, leases bound to the
 * ZooKeeper session, fencing tokens kept in each name's parent node (the last token plus one, or the server clock in
 * microseconds if that is larger). Opened through {@code zookeeper://} or {@code zk://} URIs.
 */
package io.distlock.zookeeper;
