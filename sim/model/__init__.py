"""The world and the fictional model: the source's rules, the model's given skill, and the input checks."""
