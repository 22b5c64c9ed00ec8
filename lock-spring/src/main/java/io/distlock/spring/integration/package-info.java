/** A Spring Integration {@code LockRegistry} over a distlock {@code LockStore}. */
package io.distlock.spring.integration;
