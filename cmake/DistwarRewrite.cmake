# distwar_rewrite_target(): filled in by its owner during the first session.
