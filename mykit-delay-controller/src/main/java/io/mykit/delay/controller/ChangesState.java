package io.mykit.delay.controller;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a GET handler that changes state (the original mykit-delay's routes: /get, /finish, /delete, /reStore, ...).
 * Handlers mapped to POST, PUT or DELETE change state by their method and need no mark. HEAD never runs a marked
 * handler, and without a token no browser request does ({@link StateChange}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ChangesState {}
