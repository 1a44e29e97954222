import './app.policy';
import './app.type';
import './app.queries';
import './app.mutations';
