"""Presentation: tables, the code a lesson shows and its printed lines (figures and panels in their own modules)."""
