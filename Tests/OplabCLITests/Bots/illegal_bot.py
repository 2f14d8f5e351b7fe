#!/usr/bin/env python3
"""Answers an id that `legal` does not offer at its second turn of every match whose id
is divisible by 3: `illegal`."""
import faultlib


def illegal(turn, choice):
    offered = {entry["id"] for entry in turn["legal"]}
    faultlib.send({"type": "action", "id": max(offered) + 1})


faultlib.run(illegal)
