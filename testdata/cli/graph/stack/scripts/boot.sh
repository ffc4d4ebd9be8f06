#!/bin/sh
echo booted
