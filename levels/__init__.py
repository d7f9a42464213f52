"""Tiled maps (.tmj) of the fish tank, shipped as package data."""
