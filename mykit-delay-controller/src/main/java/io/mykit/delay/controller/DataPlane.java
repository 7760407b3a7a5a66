package io.mykit.delay.controller;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a controller whose handlers (its {@link AdminOnly} ones excepted) are the data plane: with tenants configured,
 * {@link TenantGuard} lets a request run them only with a tenant's or the admin's token, and the API document declares
 * the bearer scheme on them.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface DataPlane {}
