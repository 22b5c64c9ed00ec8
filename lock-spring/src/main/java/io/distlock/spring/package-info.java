/** Spring Boot auto-configuration for distlock: the store bean, health, metrics, ShedLock and Spring Integration. */
package io.distlock.spring;
